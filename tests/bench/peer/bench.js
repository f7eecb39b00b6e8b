// Drives N concurrent 4-seat draft matches against the boardgame.io server (server.js): every
// seat is a client that never pauses, picking as soon as its state lets it. Each pick carries a
// tag that the state shows to all: from sending a pick to its tag on all 4 clients is the
// "move to its state at all 4 clients". Prints one JSON line; asserts nothing. PEER_MODE=strict:
// the server drops a pick sent from a stale state (game.js) and tells nobody; a seat that sees a
// newer state without its pick knows it was dropped (the server's states follow each other, and
// the one after the pick's was made by another move), and picks again from that state.
//   node bench.js PORT MATCHES SECONDS WARMUP SERVER_PID
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const fs = require('fs');
const { Draft } = require('./game');

const [port, matches, seconds, warmup, serverPid] = process.argv.slice(2).map(Number);
const server = `http://127.0.0.1:${port}`;
const lobby = `http://127.0.0.1:${port + 1}`;
let measuring = false;
let accepted = 0;
let stale = 0; // picks dropped while measuring (strict), each picked again
const strict = process.env.PEER_MODE === 'strict';
const moveToAll = [];
let tags = 0;

async function post(path, body) {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await fetch(lobby + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return await answer.json();
    } catch (error) {
      // the lobby let a kept connection go as it was used (its 5 s keep-alive, under load): again
      if (attempt >= 3) throw error;
    }
  }
}

async function playMatch(stop) {
  const { matchID } = await post('/games/draft/create', { numPlayers: 4 });
  const credentials = [];
  for (let p = 0; p < 4; p++) {
    const joined = await post(`/games/draft/${matchID}/join`, { playerID: String(p), playerName: `p${p}` });
    credentials.push(joined.playerCredentials);
  }
  const sent = new Map(); // tag -> { at, seenBy, measured }
  const over = new Set(); // the seats whose client has seen the game over
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  const clients = [];
  for (let p = 0; p < 4; p++) {
    const playerID = String(p);
    const client = Client({
      game: Draft,
      multiplayer: SocketIO({ server }),
      matchID,
      playerID,
      credentials: credentials[p],
      debug: false,
    });
    const seen = new Set();
    let pending = null;
    let sentAt = null; // the stateID the pending pick was sent from
    let firstTry = null; // when the move was first sent (a dropped pick is sent again)
    client.subscribe((state) => {
      if (!state) return;
      const now = performance.now();
      const G = state.G;
      for (const tag of Object.values(G.tags)) {
        if (seen.has(tag)) continue;
        seen.add(tag);
        const entry = sent.get(tag);
        if (entry && ++entry.seenBy === 4) {
          if (entry.measured) moveToAll.push(now - entry.at); // first sent while measuring, whenever it lands
          sent.delete(tag);
        }
      }
      if (pending !== null && G.tags[playerID] === pending) {
        accepted += measuring;
        pending = null;
        firstTry = null;
      } else if (strict && pending !== null && state._stateID > sentAt && !G.mine) {
        stale += measuring; // dropped: this newer state was made by another move
        sent.delete(pending);
        pending = null;
      }
      if (state.ctx.gameover) {
        over.add(playerID);
        if (over.size === 4) finish(); // ended on all 4 clients: its last moves are measured
        return;
      }
      if (pending === null && !G.mine && G.hand.length > 0) {
        const card = G.hand[Math.floor(Math.random() * G.hand.length)];
        pending = `t${tags++}`;
        firstTry = firstTry ?? performance.now();
        sentAt = state._stateID;
        sent.set(pending, { at: firstTry, seenBy: 0, measured: measuring });
        client.moves.pick(card, pending);
      }
    });
    clients.push(client);
  }
  clients.forEach((client) => client.start());
  await Promise.race([finished, stop]);
  clients.forEach((client) => client.stop());
}

function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(')')[1].trim().split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function pct(values, q) {
  if (!values.length) return null;
  const ordered = [...values].sort((a, b) => a - b);
  return Math.round(ordered[Math.min(ordered.length - 1, Math.floor(q * ordered.length))] * 100) / 100;
}

const sleep = (s) => new Promise((resolve) => setTimeout(resolve, s * 1000));
const LANDING_S = 3; // after measuring, the load goes on while the moves sent last land (as bench_service.py)

(async () => {
  let stopAll;
  const stop = new Promise((resolve) => (stopAll = resolve));
  let running = true;
  for (let i = 0; i < matches; i++) {
    (async () => {
      while (running) await playMatch(stop);
    })();
  }
  await sleep(warmup);
  measuring = true;
  const began = performance.now();
  const before = { server: cpuSeconds(serverPid), client: cpuSeconds(process.pid) };
  await sleep(seconds);
  measuring = false;
  const elapsed = (performance.now() - began) / 1000;
  const used = { server: cpuSeconds(serverPid) - before.server, client: cpuSeconds(process.pid) - before.client };
  await sleep(LANDING_S);
  running = false;
  stopAll();
  const perMove = (s) => Math.round((s / Math.max(1, accepted)) * 1e6);
  console.log(JSON.stringify({
    peer: 'boardgame.io 0.50.2',
    matches,
    mode: strict ? 'strict' : 'plain',
    stale_per_accepted: Math.round((stale / Math.max(1, accepted)) * 100) / 100,
    accepted_per_s: Math.round(accepted / elapsed),
    seat_cycle_ms: Math.round(((4 * matches) / Math.max(1, accepted / elapsed)) * 10000) / 10,
    move_to_all_views_ms_p50: pct(moveToAll, 0.5),
    move_to_all_views_ms_p99: pct(moveToAll, 0.99),
    move_to_all_views_ms_max: pct(moveToAll, 1),
    move_to_all_views_p99_over_p50: Math.round((pct(moveToAll, 0.99) / pct(moveToAll, 0.5)) * 100) / 100,
    cpu_us_per_move: { server: perMove(used.server), client: perMove(used.client) },
    server_cpu_us_per_command: perMove(used.server),
    cpu_share_of_2_cores: Math.round(((used.server + used.client) / elapsed / 2) * 100) / 100,
  }));
  process.exit(0);
})();
