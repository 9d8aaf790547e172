import { ScreenHeader } from '../ui/ScreenHeader.tsx';

/** Placeholder until the dashboard screens land. */
export function Dashboard({ userId }: { userId: string }) {
  return <ScreenHeader title="Credit dashboard" subtitle={userId} />;
}
