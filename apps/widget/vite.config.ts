import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the API at /widget (see apps/bff/src/modules/widget), so every asset URL lives under /widget/.
export default defineConfig({
  base: '/widget/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    // A partner's page waits on this frame: keep one small entry and let the chart load on demand.
    modulePreload: { polyfill: true },
    reportCompressedSize: true,
  },
  server: { port: 5174 },
});
