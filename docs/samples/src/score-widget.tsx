import { CreditWidget, type WidgetEvent } from '@credit/react';

/**
 * Your page: the widget, with a token from your server's route (user-token-route.ts). Safe to render on a server
 * (Next.js): the frame is created in the browser only, and its height is held until the first screen shows.
 */
export function ScoreWidget({ apiUrl, onEvent }: { apiUrl: string; onEvent?: (event: WidgetEvent) => void }) {
  return (
    <CreditWidget
      embedUrl={`${apiUrl}/embed.js`}
      fetchUserToken={async () => {
        const response = await fetch('/credit/user-token', { method: 'POST' });
        if (!response.ok) throw new Error(`user token: ${response.status}`);
        const { userToken } = (await response.json()) as { userToken: string };
        return userToken;
      }}
      view="score"
      theme={{ brandColor: '#0b5394' }}
      onEvent={onEvent}
    />
  );
}
