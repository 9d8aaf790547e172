import net from 'node:net';

/**
 * A TCP server that speaks just enough RESP for a client to connect and pass its ready check (CLIENT, INFO,
 * SELECT, PING answered), then never answers anything else: Redis as it looks when it stops answering.
 */
export const startStalledRedis = async (): Promise<{ url: string; commandsSeen: () => string[]; close(): Promise<void> }> => {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const parsed = parseCommand(buffered);
        if (!parsed) break;
        buffered = buffered.slice(parsed.length);
        const name = (parsed.args[0] ?? '').toUpperCase();
        seen.push(name);
        if (name === 'INFO') {
          const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
          socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
        } else if (name === 'CLIENT' || name === 'SELECT') socket.write('+OK\r\n');
        else if (name === 'PING') socket.write('+PONG\r\n');
        // Anything else (the rate limiter's script): silence.
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    commandsSeen: () => [...seen],
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};

/** One RESP array of bulk strings from the start of `input`, or undefined until all of it has arrived. */
const parseCommand = (input: string): { args: string[]; length: number } | undefined => {
  const header = /^\*(\d+)\r\n/.exec(input);
  if (!header) return undefined;
  let offset = header[0].length;
  const args: string[] = [];
  for (let i = 0; i < Number(header[1]); i++) {
    const bulk = /^\$(\d+)\r\n/.exec(input.slice(offset));
    if (!bulk) return undefined;
    const start = offset + bulk[0].length;
    const end = start + Number(bulk[1]);
    if (input.length < end + 2) return undefined;
    args.push(input.slice(start, end));
    offset = end + 2;
  }
  return { args, length: offset };
};

/** A local port nothing listens on (bound, then released). */
export const closedPort = async (): Promise<number> => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};
