import { type Request, type Response, Router } from 'express';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/api-error.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { KIT_PATH, kitListing, latestFileOf } from './listing.ts';
import { type KitFile, loadKit } from './manifest.ts';

/** A tarball's name never changes content (manifest.ts): a year, no revalidation. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The sandbox only. Production serves the API and nothing to install: its partners install the same release's
 * packages from the npm registry (or this release's sandbox), pinned in their lockfiles, so a production deployment
 * is never a package host their builds depend on (docs/partner/install.md).
 */
const servesKit = (config: Config) => config.APP_ENV === 'sandbox';

const notBuilt = () =>
  new ApiError(
    'NOT_FOUND',
    'This API was started without its partner kit: `pnpm build` packs it (apps/bff/dist/kit), `pnpm start` runs the build.',
  );

/** What the start banner prints about the kit: where it is listed and the command that installs it. */
export const kitOffer = (config: Config): { url: string; install: string } | undefined => {
  const files = servesKit(config) ? loadKit() : undefined;
  if (!files) return undefined;
  const base = publicBaseUrl(config);
  return { url: `${base}${KIT_PATH}`, install: kitListing(files, base).install };
};

/**
 * `GET /kit`: the tarballs this build packed, their versions and integrity, and the `npm install` command with
 * absolute URLs. `GET /kit/<file>`: a tarball, by the name the list gives (immutable), or by its package's name alone
 * (`credit-sdk.tgz`, a redirect to this build's tarball). Pages outside the contract, without authentication: what
 * they serve is what the npm registry will serve to anyone.
 */
export const kitRoutes = (ctx: AppContext): ModuleRoutes => {
  if (!servesKit(ctx.config)) return { operations: [] };
  const files = loadKit();
  const byFile = new Map<string, KitFile>((files ?? []).map((file) => [file.file, file]));
  const byLatest = new Map<string, KitFile>((files ?? []).map((file) => [latestFileOf(file.name), file]));
  const router = Router();
  router.get(KIT_PATH, (_req: Request, res: Response) => {
    if (!files) throw notBuilt();
    res.json(kitListing(files, publicBaseUrl(ctx.config)));
  });
  router.get(`${KIT_PATH}/:file`, (req: Request, res: Response) => {
    if (!files) throw notBuilt();
    const name = String(req.params.file);
    const latest = byLatest.get(name);
    if (latest) {
      res.setHeader('Cache-Control', 'no-cache');
      res.redirect(302, `${KIT_PATH}/${latest.file}`);
      return;
    }
    const file = byFile.get(name);
    if (!file) {
      throw new ApiError('NOT_FOUND', `No kit file ${name}: GET ${KIT_PATH} lists the tarballs of the build this API runs.`);
    }
    res.status(200);
    res.setHeader('Content-Type', 'application/gzip');
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('Content-Disposition', `attachment; filename="${file.file}"`);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.end(file.bytes);
  });
  return { operations: [], pages: router };
};
