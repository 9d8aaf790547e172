import { CreditWidget, type CreditWidgetRef } from '@credit/react';
import { useRef } from 'react';

/** Every prop of the component, and its ref: follow the customer's tab, refresh after your server changed data. */
export function CreditPanel({ apiUrl, onClose }: { apiUrl: string; onClose: () => void }) {
  const widget = useRef<CreditWidgetRef>(null);
  return (
    <section>
      <button type="button" onClick={() => widget.current?.open('offers')}>
        See my offers
      </button>
      <CreditWidget
        ref={widget}
        embedUrl={`${apiUrl}/embed.js`}
        fetchUserToken={async () => {
          const response = await fetch('/credit/user-token', { method: 'POST' });
          return ((await response.json()) as { userToken: string }).userToken;
        }}
        view="score" // score | factors | report | simulator | history | offers | alerts
        locale="en" // en | es
        theme={{ brandColor: '#0b5394', radius: 12 }}
        initialHeight={800}
        onEvent={(event) => {
          if (event.name === 'view_changed') console.info('the customer opened', event.data.view);
        }}
        onExit={onClose}
      />
    </section>
  );
}
