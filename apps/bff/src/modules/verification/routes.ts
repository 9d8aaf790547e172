import { Router } from 'express';
import type { AppContext } from '../../context.ts';

export const verificationRoutes = (_ctx: AppContext): Router => {
  const router = Router();
  return router;
};
