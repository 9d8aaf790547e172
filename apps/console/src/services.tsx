import type { ConsoleSessionInfo } from '@credit/contract/console';
import { consoleSessionMay } from '@credit/contract/console';
import type { ConsoleClient } from '@credit/sdk/console';
import { createContext, type ReactNode, useContext } from 'react';

export interface ConsoleServices {
  session: ConsoleSessionInfo;
  api: ConsoleClient;
  /**
   * Whether the session may call `operationId`, by the staff member's role and the scopes of the bank's client: a
   * viewer is never shown a change button, nor anyone a page or button whose scope the client lacks.
   */
  may: (operationId: string) => boolean;
}

const Services = createContext<ConsoleServices | undefined>(undefined);

export const ConsoleServicesProvider = ({ session, api, children }: Omit<ConsoleServices, 'may'> & { children: ReactNode }) => (
  <Services.Provider value={{ session, api, may: (operationId) => consoleSessionMay(session, operationId) }}>
    {children}
  </Services.Provider>
);

export const useConsole = (): ConsoleServices => {
  const services = useContext(Services);
  if (!services) throw new Error('useConsole outside ConsoleServicesProvider');
  return services;
};
