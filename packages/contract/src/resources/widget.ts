import { ZTimestamp, ZUserId } from '../common.ts';
import { WIDGET_DISCLOSURES, WIDGET_LOCALES } from '../widget-protocol.ts';
import { z } from '../zod.ts';

// `.` and `-` escaped inside the class so the documented pattern also compiles as a Unicode-sets (`v`) expression.
const ORIGIN_PATTERN = String.raw`^https?://[A-Za-z0-9\.\-]+(:\d{1,5})?$`;
/** `scheme://host[:port]`, as `location.origin` gives it: no path, no trailing slash. */
export const ZWebOrigin = z
  .string()
  .max(255)
  .regex(new RegExp(ORIGIN_PATTERN), 'must be an origin such as https://bank.example')
  .meta({ example: 'https://www.bank.example' });

export const ZWidgetSessionInput = z
  .strictObject({
    parentOrigin: ZWebOrigin.nullable().meta({
      description:
        'The origin of the page that embeds the frame (from the `parent` query parameter the loader set), or `null` for a ' +
        'top-level mobile webview. It must be one of the client’s embed origins.',
    }),
    locale: z
      .enum(WIDGET_LOCALES)
      .optional()
      .meta({
        description:
          'The language the frame shows. Kept on the enrolled user as the language of their alert e-mails ' +
          '(docs/partner/alert-emails.md); before enrolment the enrolment carries it.',
        example: 'es',
      }),
  })
  .meta({ id: 'WidgetSessionInput' });

export const ZWidgetSession = z
  .object({
    csrfToken: z.string().meta({ description: 'Send as `x-widget-csrf` with every request that relies on the session cookie.' }),
    expiresAt: ZTimestamp.meta({ description: 'When the session ends: the user token’s own expiry.' }),
    userId: ZUserId.nullable().meta({ description: 'The enrolled user, or `null` before enrolment.' }),
    disclosure: z.enum(WIDGET_DISCLOSURES).meta({
      description:
        'What the host page may learn about the score through widget events, from the client’s setting: `none`, `band` ' +
        'or `exact` (docs/partner/disclosure.md). The frame applies it to every event it sends the host.',
    }),
    consentTerms: z
      .object({
        termsVersion: z
          .string()
          .meta({ description: 'The terms version a consent is given under now (the text the widget shows).' }),
        validityDays: z.number().int().meta({ description: 'How long a consent runs from when it is given.', example: 365 }),
        refreshIntervalDays: z.number().int().meta({ description: 'How often monitoring pulls the file.', example: 30 }),
        partnerName: z.string().meta({ description: 'Who, besides us, receives the file: the token’s client, by name.' }),
      })
      .meta({
        description:
          'What the consent instruction says before the customer has a user record (enrolment): its version, how long it ' +
          'runs, how often the file is pulled and who receives it.',
      }),
  })
  .meta({ id: 'WidgetSession' });
export type TWidgetSession = z.infer<typeof ZWidgetSession>;

export const ZWidgetSessionStatus = z
  .object({ userId: ZUserId.nullable(), expiresAt: ZTimestamp })
  .meta({ id: 'WidgetSessionStatus' });
