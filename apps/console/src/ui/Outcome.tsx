import { useMessages } from '../i18n.tsx';
import { stateMessages } from '../messages.ts';
import { describeError } from './States.tsx';

/** A change's outcome under its button: what happened, or what went wrong and what to do. */
export const Outcome = ({
  mutation,
  success,
}: {
  mutation: { isPending: boolean; isError: boolean; error: unknown; isSuccess: boolean };
  success: string | undefined;
}) => {
  const t = useMessages(stateMessages);
  if (mutation.isPending) return <p role="status">{t.working}</p>;
  if (mutation.isError) {
    const { title, advice } = describeError(mutation.error, t);
    return (
      <p role="alert" className="field-problem">
        {title}: {advice}
      </p>
    );
  }
  return mutation.isSuccess && success ? <p role="status">{success}</p> : null;
};
