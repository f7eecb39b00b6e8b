// The peer: boardgame.io's server, in-memory storage, socket.io; the lobby API on PORT+1 (on the
// game server's own port its routes are added after koa-socket-2 has built the app's handler).
const { Server, Origins } = require('boardgame.io/server');
const { Draft } = require('./game');
const port = Number(process.env.PORT || 8010);
const server = Server({ games: [Draft], origins: [Origins.LOCALHOST] });
server.run({ port, lobbyConfig: { apiPort: port + 1 } }, () => console.log('peer listening'));
