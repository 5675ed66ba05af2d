// The peer's game: a trivial counter, one move per turn, over after MOVES moves.
// MOVES = 22, the actions in one of parlour's bench matches (tinycards, hand_size=1).
const MOVES = 22;

const Counter = {
  name: 'counter',
  setup: () => ({ count: 0 }),
  moves: {
    inc: ({ G }) => {
      G.count += 1;
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G }) => (G.count >= MOVES ? { done: true } : undefined),
};

module.exports = { Counter, MOVES };
