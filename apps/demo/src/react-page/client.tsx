// The React page's browser entry, bundled by bundle.ts into /react-demo.js.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { type ReactDemoConfig, ReactDemoPage } from './ReactDemoPage.tsx';

const configElement = document.getElementById('demo-config');
const root = document.getElementById('react-root');
if (configElement?.textContent && root) {
  const config = JSON.parse(configElement.textContent) as ReactDemoConfig;
  // StrictMode on purpose: the component must leave one frame even when effects run twice.
  createRoot(root).render(
    <StrictMode>
      <ReactDemoPage {...config} />
    </StrictMode>,
  );
}
