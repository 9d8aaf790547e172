import type { TCreditScore } from '@credit/contract';
import { useEffect, useRef } from 'react';
import { useEmitEvent } from '../app/WidgetServicesProvider.tsx';

/**
 * Sends `score_loaded` when the dashboard first has a score and whenever the score it shows changes (a refresh
 * here, or the host's `refresh()` after its server refreshed it). What the host learns of the score is decided
 * where every event leaves the frame (bridge/disclosure.ts), by the client's setting.
 */
export const useScoreLoadedEvent = (userId: string, score: TCreditScore | undefined): void => {
  const emitEvent = useEmitEvent();
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (!score) return;
    const key = `${userId}|${score.score}|${score.scoreDate}`;
    if (reported.current === key) return;
    reported.current = key;
    emitEvent({ name: 'score_loaded', data: { userId, disclosure: 'none', score: score.score, band: score.rating } });
  }, [emitEvent, userId, score]);
};
