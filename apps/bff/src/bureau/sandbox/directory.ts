import type { TradelineKind } from '../provider.ts';

/** Fictional lenders by the kind of account they open. All names are made up (Microsoft's sample companies). */
export const LENDERS: Record<TradelineKind, readonly string[]> = {
  credit_card: [
    'Northwind Bank',
    'Woodgrove Bank',
    'Adventure Works Card Services',
    'Fabrikam Credit Union',
    'Contoso Card Services',
    'Wide World Bank',
  ],
  auto_loan: ['Contoso Auto Finance', 'Proseware Auto Credit', 'Fourth Coffee Motors Finance'],
  student_loan: ['Litware Student Loans', 'Graphic Design Institute Lending'],
  mortgage: ['Tailspin Mortgage', 'Margie’s Home Lending', 'Trey Research Home Loans'],
  personal_loan: ['Proseware Lending', 'Alpine Ski House Credit', 'Blue Yonder Personal Finance'],
};

/** Inquiries also come from lenders a person never opened an account with. */
export const INQUIRY_SOURCES = [
  ...Object.values(LENDERS).flat(),
  'Lamna Healthcare Financing',
  'Humongous Insurance',
  'Coho Winery Rewards Card',
] as const;

export const STREET_NAMES = [
  'Maple',
  'Oak',
  'Cedar',
  'Elm',
  'Willow',
  'Lakeview',
  'Hillcrest',
  'Sunset',
  'Park',
  'Washington',
  'Lincoln',
  'Jefferson',
  'Highland',
  'Riverside',
  'Chestnut',
  'Magnolia',
] as const;

export const STREET_SUFFIXES = ['St', 'Ave', 'Rd', 'Ln', 'Dr', 'Ct', 'Blvd', 'Way'] as const;

export const CITIES: readonly { city: string; state: string; zip: number }[] = [
  { city: 'Columbus', state: 'OH', zip: 43215 },
  { city: 'Madison', state: 'WI', zip: 53703 },
  { city: 'Austin', state: 'TX', zip: 78701 },
  { city: 'Denver', state: 'CO', zip: 80202 },
  { city: 'Raleigh', state: 'NC', zip: 27601 },
  { city: 'Portland', state: 'OR', zip: 97201 },
  { city: 'Nashville', state: 'TN', zip: 37203 },
  { city: 'Sacramento', state: 'CA', zip: 95814 },
  { city: 'Richmond', state: 'VA', zip: 23219 },
  { city: 'Boise', state: 'ID', zip: 83702 },
  { city: 'Tucson', state: 'AZ', zip: 85701 },
  { city: 'Omaha', state: 'NE', zip: 68102 },
  { city: 'Albany', state: 'NY', zip: 12207 },
  { city: 'Tampa', state: 'FL', zip: 33602 },
];
