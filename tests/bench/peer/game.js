// The peer's game: a 4-seat simultaneous card draft. Every seat picks one card of its hand at
// once; when all have picked, the hands pass left; three rounds of seven picks. Hands are secret.
const { ActivePlayers, INVALID_MOVE } = require('boardgame.io/core');
const HAND = 7;
const ROUNDS = 3;

function deal(G, numPlayers) {
  for (let p = 0; p < numPlayers; p++) G.hands[p] = G.deck.splice(0, HAND);
}

function pick({ G, ctx, playerID }, card, tag) {
  if (G.picked[playerID]) return INVALID_MOVE;
  const hand = G.hands[playerID];
  const at = hand.indexOf(card);
  if (at < 0) return INVALID_MOVE;
  hand.splice(at, 1);
  G.picked[playerID] = card;
  G.tags[playerID] = tag;
  if (Object.keys(G.picked).length === ctx.numPlayers) {
    for (let p = 0; p < ctx.numPlayers; p++) G.tableau[p].push(G.picked[p]);
    G.picked = {};
    const hands = [];
    for (let p = 0; p < ctx.numPlayers; p++) hands[(p + 1) % ctx.numPlayers] = G.hands[p];
    for (let p = 0; p < ctx.numPlayers; p++) G.hands[p] = hands[p];
    if (G.hands[0].length === 0) {
      G.round += 1;
      if (G.round <= ROUNDS) deal(G, ctx.numPlayers);
    }
  }
}

const Draft = {
  name: 'draft',
  setup: ({ ctx, random }) => {
    const deck = random.Shuffle([...Array(120).keys()].map((i) => 'card-' + i));
    const G = { deck, hands: {}, picked: {}, tags: {}, tableau: {}, round: 1 };
    for (let p = 0; p < ctx.numPlayers; p++) G.tableau[p] = [];
    deal(G, ctx.numPlayers);
    return G;
  },
  turn: { activePlayers: ActivePlayers.ALL },
  // simultaneous picks: one does not wait for the others' (ignoreStaleStateID), and only the
  // server decides (client: false), as in our service. PEER_MODE=strict (the server's): a pick
  // sent from a state that is no longer the newest is dropped, as our expected_version's 409
  moves: { pick: { move: pick, client: false, ignoreStaleStateID: process.env.PEER_MODE !== 'strict' } },
  endIf: ({ G }) => (G.round > ROUNDS ? { done: true } : undefined),
  playerView: ({ G, playerID }) => ({
    round: G.round,
    hand: G.hands[playerID] || [],
    picked: Object.fromEntries(Object.keys(G.picked).map((p) => [p, true])),
    mine: G.picked[playerID] || null,
    tags: G.tags,
    tableau: G.tableau,
    deck: G.deck.length,
  }),
};

module.exports = { Draft };
