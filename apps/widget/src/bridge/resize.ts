/** Keeps the host's iframe as tall as the content, so the partner's page scrolls instead of the frame. */
export const observeContentHeight = (root: HTMLElement, sendResize: (height: number) => void): (() => void) => {
  let lastHeight = -1;
  const report = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    // Before the first render the root is empty: a zero would collapse the frame the loader sized for us.
    if (height === lastHeight || height === 0) return;
    lastHeight = height;
    sendResize(height);
  };
  if (typeof ResizeObserver === 'undefined') {
    report();
    return () => {};
  }
  const observer = new ResizeObserver(report);
  observer.observe(root);
  report();
  return () => observer.disconnect();
};
