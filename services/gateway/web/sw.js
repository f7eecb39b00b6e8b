// The reference client's service worker (docs/notifications.md): shows each Web Push message the
// service sends (its title and body already in the player's language) and, on a click, brings
// the client forward (its home lists the player's matches).
self.addEventListener("push", (event) => {
  const message = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(message.title || "Tavern", {
    body: message.body || "",
    tag: message.match_id ? `${message.match_id}:${message.type}` : undefined, // one per match and kind, the newest
    data: message,
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    return open.length ? open[0].focus() : self.clients.openWindow("./");
  })());
});
