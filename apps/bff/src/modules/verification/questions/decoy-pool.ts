import type { TradelineKind } from '../../../bureau/provider.ts';
import { CITIES, LENDERS, STREET_NAMES, STREET_SUFFIXES } from '../../../bureau/sandbox/directory.ts';

/**
 * Where wrong choices come from. They must look like the right ones, so they are drawn from the
 * same lender and street directory the sandbox bureau uses. A real bureau adapter would bring its
 * own (real lenders and streets of the region); the question builders only need these lists.
 */
export const DECOY_LENDERS: Readonly<Record<TradelineKind, readonly string[]>> = LENDERS;
export const DECOY_STREET_NAMES: readonly string[] = STREET_NAMES;
export const DECOY_STREET_SUFFIXES: readonly string[] = STREET_SUFFIXES;
export const DECOY_CITIES: readonly { city: string; state: string }[] = CITIES;
