import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Built into `dist/`, served by the server under `/console`. The first screen's chunk holds the shell, the router,
 * the data layer and the contract; each product's screens are their own chunks, loaded when first visited.
 */
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
});
