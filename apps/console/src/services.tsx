import type { ConsoleSessionInfo } from '@credit/contract/console';
import { consoleRoleMay } from '@credit/contract/console';
import type { ConsoleClient } from '@credit/sdk/console';
import { createContext, type ReactNode, useContext } from 'react';

export interface ConsoleServices {
  session: ConsoleSessionInfo;
  api: ConsoleClient;
  /** Whether the staff member's role may call `operationId`: a viewer is never shown a change button. */
  may: (operationId: string) => boolean;
}

const Services = createContext<ConsoleServices | undefined>(undefined);

export const ConsoleServicesProvider = ({ session, api, children }: Omit<ConsoleServices, 'may'> & { children: ReactNode }) => (
  <Services.Provider value={{ session, api, may: (operationId) => consoleRoleMay(session.role, operationId) }}>
    {children}
  </Services.Provider>
);

export const useConsole = (): ConsoleServices => {
  const services = useContext(Services);
  if (!services) throw new Error('useConsole outside ConsoleServicesProvider');
  return services;
};
