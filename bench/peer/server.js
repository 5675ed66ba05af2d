// boardgame.io 0.50.2 server for make bench: in-memory storage, socket.io transport.
// Prints {"port": N} on stdout once it listens (port 0 = any free port).
const { Server } = require('boardgame.io/server');
const { Counter } = require('./game');

const port = Number(process.argv[2] || 0);
const server = Server({ games: [Counter], origins: [] });

server.run({ port }).then(({ appServer }) => {
  process.stdout.write(JSON.stringify({ port: appServer.address().port }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
