// boardgame.io 0.50.2 server for make bench: socket.io transport, in-memory storage or its
// durable FlatFile storage (node-persist, one file per match key under DIR).
//   node server.js PORT [memory|flatfile DIR]
// Prints {"port": N} on stdout once it listens (port 0 = any free port).
const { Server, FlatFile } = require('boardgame.io/server');
const { Counter } = require('./game');

const [portArg, storage = 'memory', dir] = process.argv.slice(2);
const db = storage === 'flatfile' ? new FlatFile({ dir, logging: false }) : undefined;
if (storage !== 'memory' && !db) throw new Error(`unknown storage ${storage}`);
const server = Server({ games: [Counter], origins: [], ...(db ? { db } : {}) });

server.run({ port: Number(portArg || 0) }).then(({ appServer }) => {
  process.stdout.write(JSON.stringify({ port: appServer.address().port }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
