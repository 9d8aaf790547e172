import type { WidgetTheme } from '@credit/contract/widget-protocol';

type Rgb = [number, number, number];

/** Lets the browser parse any CSS colour (names, hsl(), oklch()) and reads it back as rgb. */
const toRgb = (color: string): Rgb | null => {
  if (!CSS.supports('color', color)) return null;
  const probe = document.createElement('span');
  probe.style.color = color;
  probe.style.display = 'none';
  document.body.append(probe);
  const computed = getComputedStyle(probe).color;
  probe.remove();
  const match = computed.match(/rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
};

const luminance = ([r, g, b]: Rgb) => {
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};

const contrast = (a: Rgb, b: Rgb) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

const WHITE: Rgb = [255, 255, 255];
const NEAR_BLACK: Rgb = [11, 18, 32];

export const resolvedScheme = (scheme: WidgetTheme['colorScheme']): 'light' | 'dark' => {
  if (scheme === 'light' || scheme === 'dark') return scheme;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
};

/**
 * Maps the host's theme onto the CSS variables. A brand colour that would make unreadable text is
 * still used for fills, but text on it switches to black or white, and brand-coloured text falls back
 * to the normal text colour.
 */
export const applyTheme = (theme: WidgetTheme | undefined): void => {
  const root = document.documentElement;
  root.dataset.colorScheme = theme?.colorScheme ?? 'auto';
  if (theme?.radius !== undefined) root.style.setProperty('--cw-radius', `${theme.radius}px`);
  if (theme?.fontFamily && CSS.supports('font-family', theme.fontFamily)) {
    root.style.setProperty('--cw-font', `${theme.fontFamily}, system-ui, sans-serif`);
  }
  const brand = theme?.brandColor ? toRgb(theme.brandColor) : null;
  if (!theme?.brandColor || !brand) return;
  root.style.setProperty('--cw-brand', theme.brandColor);
  root.style.setProperty('--cw-brand-contrast', contrast(brand, WHITE) >= contrast(brand, NEAR_BLACK) ? '#ffffff' : '#0b1220');
  const surface = resolvedScheme(theme.colorScheme) === 'dark' ? ([26, 30, 37] as Rgb) : WHITE;
  root.style.setProperty('--cw-brand-text', contrast(brand, surface) >= 4.5 ? theme.brandColor : 'var(--cw-text)');
  root.style.setProperty('--cw-focus', contrast(brand, surface) >= 3 ? theme.brandColor : 'var(--cw-text)');
};
