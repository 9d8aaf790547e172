import { Router } from 'express';
import type { AppContext } from '../../context.ts';

export const offerRoutes = (_ctx: AppContext): Router => {
  const router = Router();
  return router;
};
