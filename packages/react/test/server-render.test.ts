// @vitest-environment node
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
// Importing is itself under test: the package must load where there is no `window` (Next.js, Remix).
import { CreditWidget } from '../src/index.ts';

const render = (props: Partial<Parameters<typeof CreditWidget>[0]> = {}) =>
  renderToString(
    createElement(CreditWidget, {
      embedUrl: 'https://api.example.com/embed.js',
      fetchUserToken: () => {
        throw new Error('a server render must not ask for a token');
      },
      ...props,
    }),
  );

describe('<CreditWidget> on the server', () => {
  it('renders only the container, with the same reserved height the loader uses', () => {
    expect(typeof window).toBe('undefined');
    expect(render()).toBe('<div data-credit-widget-container="" style="min-height:800px"></div>');
    expect(render({ view: 'alerts', id: 'credit', className: 'slot' })).toBe(
      '<div id="credit" class="slot" data-credit-widget-container="" style="min-height:480px"></div>',
    );
    expect(render({ view: 'offers', initialHeight: 1200 })).toContain('min-height:1200px');
  });

  it('opens on the report and the what-if views, with their own reserved heights', () => {
    expect(render({ view: 'report' })).toBe('<div data-credit-widget-container="" style="min-height:3000px"></div>');
    expect(render({ view: 'simulator' })).toBe('<div data-credit-widget-container="" style="min-height:900px"></div>');
  });

  it('never names the loader in the markup, so the page gets the script only once the browser runs', () => {
    const html = render();
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<iframe');
    // `data-credit-widget` would make the loader start a second, declarative widget in the same element.
    expect(html).not.toMatch(/data-credit-widget[ =>]/);
  });
});
