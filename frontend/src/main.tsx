import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/providers';
import { AppRouter } from './app/router';
import { consumeTokenFromAddress } from './app/start';
import { applyTheme, storedTheme } from './lib/theme';
import './styles/global.css';

// Before the first render: a dark or light choice made on this device shows from the start.
applyTheme(storedTheme());
consumeTokenFromAddress();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <Providers>
      <AppRouter />
    </Providers>
  </StrictMode>,
);
