import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { RunningServer } from './server.ts';

/** What an API process tells the primary once its server listens. */
interface Listening {
  type: 'api-listening';
  url: string;
}
const isListening = (message: unknown): message is Listening =>
  (message as Listening | null)?.type === 'api-listening' && typeof (message as Listening).url === 'string';

/** In an API process: tells the primary it serves `url`. */
export const reportListening = (url: string) => process.send?.({ type: 'api-listening', url } satisfies Listening);

/**
 * `API_PROCESSES` above 1, in the primary: forks that many API processes (node:cluster), which all listen on the
 * one port while the primary hands them connections in turn. The primary serves no HTTP itself; it keeps the
 * jobs that must run once per instance (start-up, the webhook worker for ROLE=all, the sandbox demo). Answers
 * once every process listens; an API process that dies later is replaced. `close()` stops them all (SIGTERM,
 * each closes its server and database) and resolves when the last has exited.
 */
export const forkApiProcesses = (count: number, logger: Logger): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    let url: string | undefined;
    let ready = 0;
    let stopping = false;
    const workers = new Set<Worker>();
    const start = () => {
      const worker = cluster.fork();
      workers.add(worker);
      let listening = false;
      worker.on('message', (message: unknown) => {
        if (!isListening(message) || listening) return;
        listening = true;
        url ??= message.url;
        if (++ready === count) resolve({ url, close });
      });
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        if (stopping) return;
        if (!listening) {
          stopping = true;
          for (const other of workers) other.process.kill('SIGTERM');
          reject(new Error(`an API process exited with ${signal ?? code} before it was listening`));
          return;
        }
        logger.error({ code, signal }, 'an API process exited; starting another');
        start();
      });
    };
    const close = async () => {
      stopping = true;
      await Promise.all(
        [...workers].map(
          (worker) =>
            new Promise<void>((done) => {
              if (worker.isDead()) return done();
              worker.once('exit', () => done());
              worker.process.kill('SIGTERM');
            }),
        ),
      );
    };
    for (let i = 0; i < count; i++) start();
  });
