import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createQueryClient } from './api/query-client.ts';
import { readLaunchContext } from './bridge/launch.ts';
import { observeContentHeight } from './bridge/resize.ts';
import { connect } from './session/boot.ts';
import { setParentOrigin } from './session/session.ts';
import './theme/tokens.css';
import './theme/base.css';
import './ui/ui.css';

// Before anything else: take the token out of the address bar and tell the loader we are listening.
const launch = readLaunchContext();
setParentOrigin(launch.parentOrigin);
void connect(launch);

const queryClient = createQueryClient();

const rootElement = document.getElementById('root');
if (rootElement) {
  observeContentHeight(rootElement);
  createRoot(rootElement).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App launch={launch} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
