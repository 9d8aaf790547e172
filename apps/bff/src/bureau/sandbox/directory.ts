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

/** Soft inquiries by others: lenders' pre-approval checks and an insurer's review. */
export const SOFT_INQUIRY_SOURCES = [
  ...LENDERS.credit_card.map((lender) => `${lender} (pre-approval)`),
  'Proseware Lending (pre-approval)',
  'Humongous Insurance (insurance review)',
];

/** The soft inquiry a person's own look at their file leaves. */
export const OWN_CHECK_SOURCE = 'Consumer disclosure (own check)';

/** Collection agencies (made-up names, like the lenders). */
export const COLLECTION_AGENCIES = [
  'Consolidated Messenger Recovery',
  'Southridge Collection Services',
  'Lakeshore Receivables',
  'Wingtip Account Recovery',
  'A. Datum Credit Management',
] as const;

/** Debts that reach a collector without ever being a tradeline: medical bills, utilities, phone contracts. */
export const MEDICAL_AND_UTILITY_CREDITORS = [
  'Lamna Healthcare Company',
  'Fabrikam Family Medicine',
  'City Power & Light',
  'Relecloud Wireless',
  'Southridge Water Utility',
] as const;

/** Employers a file reports (made-up names). */
export const EMPLOYERS = [
  'Contoso Ltd',
  'Fabrikam Inc',
  'Litware Inc',
  'Tailspin Toys',
  'Wingtip Toys',
  'Northwind Traders',
  'A. Datum Corporation',
  'Coho Vineyard',
  'Lucerne Publishing',
  'Wide World Importers',
  'Relecloud',
  'VanArsdel Ltd',
  'Trey Research',
  'Fourth Coffee',
] as const;

/** The federal bankruptcy court for each city in CITIES (the district that city is in). */
export const BANKRUPTCY_COURTS: Readonly<Record<string, string>> = {
  OH: 'U.S. Bankruptcy Court, Southern District of Ohio',
  WI: 'U.S. Bankruptcy Court, Western District of Wisconsin',
  TX: 'U.S. Bankruptcy Court, Western District of Texas',
  CO: 'U.S. Bankruptcy Court, District of Colorado',
  NC: 'U.S. Bankruptcy Court, Eastern District of North Carolina',
  OR: 'U.S. Bankruptcy Court, District of Oregon',
  TN: 'U.S. Bankruptcy Court, Middle District of Tennessee',
  CA: 'U.S. Bankruptcy Court, Eastern District of California',
  VA: 'U.S. Bankruptcy Court, Eastern District of Virginia',
  ID: 'U.S. Bankruptcy Court, District of Idaho',
  AZ: 'U.S. Bankruptcy Court, District of Arizona',
  NE: 'U.S. Bankruptcy Court, District of Nebraska',
  NY: 'U.S. Bankruptcy Court, Northern District of New York',
  FL: 'U.S. Bankruptcy Court, Middle District of Florida',
};
