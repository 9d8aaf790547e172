import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createQueryClient } from './api/query-client.ts';
import { createWidgetServices } from './app/services.ts';
import { WidgetServicesProvider } from './app/WidgetServicesProvider.tsx';
import { readLaunchContext } from './bridge/launch.ts';
import { observeContentHeight } from './bridge/resize.ts';
import './theme/tokens.css';
import './theme/base.css';
import './ui/ui.css';

// Before anything else: take the token out of the address bar and tell the loader we are listening.
const launch = readLaunchContext();
const services = createWidgetServices(launch);
void services.bridge.connect();

const queryClient = createQueryClient(services.bridge);

const rootElement = document.getElementById('root');
if (rootElement) {
  observeContentHeight(rootElement, (height) => services.bridge.sendResize(height));
  createRoot(rootElement).render(
    <StrictMode>
      <WidgetServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </WidgetServicesProvider>
    </StrictMode>,
  );
}
