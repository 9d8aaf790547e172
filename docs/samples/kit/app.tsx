// The page script of a partner's React app: the quickstart's widget sample in a root of its own. The page's HTML gives
// the API's URL (`<div id="root" data-api-url="https://api.example.com">`); the widget's events are kept on `window`.
import { createRoot } from 'react-dom/client';
import { ScoreWidget } from './src/score-widget.js';

declare global {
  interface Window {
    partnerEvents: string[];
  }
}

window.partnerEvents = [];
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <ScoreWidget apiUrl={root.dataset.apiUrl ?? ''} onEvent={(event) => window.partnerEvents.push(event.name)} />,
);
