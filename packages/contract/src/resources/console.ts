import { ZTimestamp } from '../common.ts';
import { CONSOLE_ROLES } from '../console.ts';
import { z } from '../zod.ts';
import { ZEmail } from './users.ts';

export const ZConsoleRole = z.enum(CONSOLE_ROLES, `must be one of ${CONSOLE_ROLES.join(', ')}`).meta({
  id: 'ConsoleRole',
  description:
    '`viewer` sees every page of the console and changes nothing; `editor` also changes offers, webhooks (test ' +
    'events, resends, recovery, secret rotation), the sandbox’s test clocks and the client secret (a rotation).',
  example: 'viewer',
});

export const ZConsoleLinkInput = z
  .strictObject({
    staff: z
      .strictObject({
        id: z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .max(100, 'must be at most 100 characters')
          .meta({
            description:
              'Your own id for the staff member (an employee number, a directory id): every console action is on ' +
              'your audit trail under it.',
            example: 'emp-4821',
          }),
        email: ZEmail.meta({
          description: 'The staff member’s work e-mail, shown in the console.',
          example: 'ana.ruiz@bank.example',
        }),
      })
      .meta({ description: 'Who will open the link.' }),
    role: ZConsoleRole,
  })
  .meta({ id: 'ConsoleLinkInput' });
export type TConsoleLinkInput = z.infer<typeof ZConsoleLinkInput>;

export const ZConsoleLink = z
  .object({
    url: z.url().meta({
      description:
        'Opens the console signed in as the staff member, once: the first visit exchanges it for an eight-hour ' +
        'session and the address bar no longer shows it. Give it only to that person.',
      example: 'https://api.example.com/console/auth?token=cst_sbx_4Fh8Kq2Lm9Xz4Pw7RnBv3Tc6Yd1Ue5Ga8Hb0Jc2',
    }),
    expiresAt: ZTimestamp.meta({ description: 'Ten minutes from now: after it the link opens nothing.' }),
  })
  .meta({ id: 'ConsoleLink' });
export type TConsoleLink = z.infer<typeof ZConsoleLink>;
