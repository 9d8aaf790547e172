import { act, createElement, type ReactNode, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Renders into a fresh element on the page, in StrictMode (double effects), as a partner's dev build runs. */
export const renderStrict = async (element: ReactNode) => {
  const host = document.createElement('div');
  document.body.append(host);
  let root: Root | undefined;
  await act(async () => {
    root = createRoot(host);
    root.render(createElement(StrictMode, null, element));
  });
  return {
    host,
    rerender: (next: ReactNode) => act(async () => root?.render(createElement(StrictMode, null, next))),
    unmount: async () => {
      await act(async () => root?.unmount());
      host.remove();
    },
  };
};

/** Lets the loader's script load and pending promises settle, inside act so React applies their updates. */
export const settle = async (until: () => boolean) => {
  for (let round = 0; round < 200 && !until(); round += 1) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
  }
};
