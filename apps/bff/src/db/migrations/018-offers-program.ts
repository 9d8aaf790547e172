/**
 * Each client's own offers catalogue (modules/offers): the offers with their versions, outcomes per stage on
 * conversions, impressions, the program's daily counts and score bands, and the per-user offer profile the audience
 * is found from.
 * The catalogue that every client shared before becomes archived offers of each client that has clicks on them, so
 * those clicks and conversions stay readable and can still take outcomes; a conversion recorded before stages
 * existed was a completed application, `funded`. Existing enrolments, clicks and conversions seed the daily counts.
 */
const LEGACY_OFFERS = `
  ('off_nwbCashBack001', '{"type": "credit_card", "provider": "Northwind Bank", "name": "Northwind Cash Back Card", "description": "Unlimited 1.5% cash back on every purchase and 3% at grocery stores, with no annual fee.", "aprType": "variable", "tiers": [{"minScore": 670, "maxScore": 850, "apr": 28.24, "creditLimit": {"min": 1000, "max": 15000}}], "rules": {"minScore": 670}, "costs": {"annualFee": 0}, "termMonths": null, "signupBonus": {"amount": 200, "requirement": "Spend $500 in the first 3 months"}, "applicationUrl": "https://www.northwindbank.example/apply/cash-back"}'),
  ('off_nwbTravelPlus01', '{"type": "credit_card", "provider": "Northwind Bank", "name": "Northwind Travel Plus Card", "description": "3x points on travel and dining, airport lounge access and no foreign transaction fees.", "aprType": "variable", "tiers": [{"minScore": 740, "maxScore": 850, "apr": 28.49, "creditLimit": {"min": 5000, "max": 30000}}], "rules": {"minScore": 740}, "costs": {"annualFee": 95}, "termMonths": null, "signupBonus": {"amount": 750, "requirement": "Spend $4,000 in the first 3 months"}, "applicationUrl": "https://www.northwindbank.example/apply/travel-plus"}'),
  ('off_ctsPlatinumBT01', '{"type": "credit_card", "provider": "Contoso", "name": "Contoso Platinum Balance Transfer Card", "description": "0% intro APR on balance transfers for 18 months (3% transfer fee), then the standard variable APR.", "aprType": "variable", "tiers": [{"minScore": 700, "maxScore": 850, "apr": 29.24, "creditLimit": {"min": 2000, "max": 20000}}], "rules": {"minScore": 700, "refinance": {"accountKinds": ["credit_card"]}}, "costs": {"annualFee": 0}, "termMonths": null, "signupBonus": null, "applicationUrl": "https://www.contoso.example/cards/platinum-balance-transfer"}'),
  ('off_ctsStudent0001', '{"type": "credit_card", "provider": "Contoso", "name": "Contoso Student Card", "description": "Built for a first credit card: 1% cash back, free monthly score updates and a higher line after 6 on-time payments.", "aprType": "variable", "tiers": [{"minScore": 600, "maxScore": 850, "apr": 27.24, "creditLimit": {"min": 500, "max": 3000}}], "rules": {"minScore": 600}, "costs": {"annualFee": 0}, "termMonths": null, "signupBonus": {"amount": 50, "requirement": "Make your first purchase within 3 months"}, "applicationUrl": "https://www.contoso.example/cards/student"}'),
  ('off_fcuSecured0001', '{"type": "credit_card", "provider": "Fabrikam Credit Union", "name": "Fabrikam Secured Builder Card", "description": "A secured card to build or rebuild credit: your deposit sets the line, and it reports to all three bureaus.", "aprType": "variable", "tiers": [{"minScore": 300, "maxScore": 850, "apr": 18.49, "creditLimit": {"min": 200, "max": 2500}}], "rules": {"minScore": 300}, "costs": {"annualFee": 0}, "termMonths": null, "signupBonus": null, "applicationUrl": "https://www.fabrikamcu.example/cards/secured-builder"}'),
  ('off_wgbRewards0001', '{"type": "credit_card", "provider": "Woodgrove Bank", "name": "Woodgrove Everyday Rewards Card", "description": "2x points at gas stations and restaurants, 1x everywhere else; points never expire.", "aprType": "variable", "tiers": [{"minScore": 640, "maxScore": 850, "apr": 29.99, "creditLimit": {"min": 1000, "max": 10000}}], "rules": {"minScore": 640}, "costs": {"annualFee": 0}, "termMonths": null, "signupBonus": {"amount": 150, "requirement": "Spend $1,000 in the first 90 days"}, "applicationUrl": "https://www.woodgrovebank.example/cards/everyday-rewards"}'),
  ('off_wgbPremier0001', '{"type": "credit_card", "provider": "Woodgrove Bank", "name": "Woodgrove Premier Card", "description": "Premium travel card with a $300 annual travel credit and 5x points on flights booked through Woodgrove.", "aprType": "variable", "tiers": [{"minScore": 760, "maxScore": 850, "apr": 29.99, "creditLimit": {"min": 10000, "max": 50000}}], "rules": {"minScore": 760}, "costs": {"annualFee": 250}, "termMonths": null, "signupBonus": {"amount": 1000, "requirement": "Spend $6,000 in the first 6 months"}, "applicationUrl": "https://www.woodgrovebank.example/cards/premier"}'),
  ('off_nwbPersonal001', '{"type": "loan", "provider": "Northwind Bank", "name": "Northwind Personal Loan", "description": "Fixed-rate personal loan from $2,000 to $50,000 over 2 to 7 years, with no origination fee.", "aprType": "fixed", "tiers": [{"minScore": 660, "maxScore": 850, "apr": 24.99, "creditLimit": {"min": 2000, "max": 50000}}], "rules": {"minScore": 660, "refinance": {"accountKinds": ["personal_loan"]}}, "costs": {"annualFee": 0}, "termMonths": 60, "signupBonus": null, "applicationUrl": "https://www.northwindbank.example/apply/personal-loan"}'),
  ('off_fcuDebtConsol1', '{"type": "loan", "provider": "Fabrikam Credit Union", "name": "Fabrikam Debt Consolidation Loan", "description": "Combine card balances into one fixed monthly payment; we can pay your other lenders directly.", "aprType": "fixed", "tiers": [{"minScore": 680, "maxScore": 850, "apr": 17.99, "creditLimit": {"min": 5000, "max": 40000}}], "rules": {"minScore": 680, "refinance": {"accountKinds": ["credit_card", "personal_loan"]}}, "costs": {"annualFee": 0}, "termMonths": 60, "signupBonus": null, "applicationUrl": "https://www.fabrikamcu.example/loans/debt-consolidation"}'),
  ('off_ctsAutoLoan001', '{"type": "loan", "provider": "Contoso", "name": "Contoso New & Used Auto Loan", "description": "Finance a new or used car for up to 84 months; rate discount with automatic payments.", "aprType": "fixed", "tiers": [{"minScore": 620, "maxScore": 850, "apr": 14.99, "creditLimit": {"min": 5000, "max": 75000}}], "rules": {"minScore": 620}, "costs": {"annualFee": 0}, "termMonths": 60, "signupBonus": null, "applicationUrl": "https://www.contoso.example/loans/auto"}'),
  ('off_fcuAutoRefi001', '{"type": "loan", "provider": "Fabrikam Credit Union", "name": "Fabrikam Auto Refinance", "description": "Refinance your current auto loan and lower your monthly payment; no payments for the first 60 days.", "aprType": "fixed", "tiers": [{"minScore": 640, "maxScore": 850, "apr": 12.49, "creditLimit": {"min": 5000, "max": 60000}}], "rules": {"minScore": 640, "refinance": {"accountKinds": ["auto_loan"]}}, "costs": {"annualFee": 0}, "termMonths": 60, "signupBonus": {"amount": 100, "requirement": "Refinance a balance of $10,000 or more"}, "applicationUrl": "https://www.fabrikamcu.example/loans/auto-refinance"}'),
  ('off_wgbStudentRf01', '{"type": "loan", "provider": "Woodgrove Bank", "name": "Woodgrove Student Loan Refinance", "description": "Refinance federal and private student loans into one fixed-rate loan over 5 to 20 years.", "aprType": "fixed", "tiers": [{"minScore": 650, "maxScore": 850, "apr": 9.99, "creditLimit": {"min": 5000, "max": 150000}}], "rules": {"minScore": 650, "refinance": {"accountKinds": ["student_loan"]}}, "costs": {"annualFee": 0}, "termMonths": 60, "signupBonus": null, "applicationUrl": "https://www.woodgrovebank.example/loans/student-refinance"}'),
  ('off_wgbStarterLn01', '{"type": "loan", "provider": "Woodgrove Bank", "name": "Woodgrove Credit Starter Loan", "description": "A small fixed-rate loan for thin or rebuilding credit files; on-time payments are reported monthly.", "aprType": "fixed", "tiers": [{"minScore": 560, "maxScore": 850, "apr": 35.99, "creditLimit": {"min": 500, "max": 5000}}], "rules": {"minScore": 560}, "costs": {"annualFee": 0}, "termMonths": 60, "signupBonus": null, "applicationUrl": "https://www.woodgrovebank.example/loans/credit-starter"}'),
  ('off_ctsHolidayLn01', '{"type": "loan", "provider": "Contoso", "name": "Contoso Seasonal Personal Loan", "description": "Limited-time fixed-rate loan for seasonal expenses, repaid over 12 to 36 months.", "aprType": "fixed", "tiers": [{"minScore": 650, "maxScore": 850, "apr": 22.99, "creditLimit": {"min": 1000, "max": 15000}}], "rules": {"minScore": 650}, "costs": {"annualFee": 0}, "termMonths": 60, "signupBonus": null, "applicationUrl": "https://www.contoso.example/loans/seasonal"}'),
  ('off_tspFixed30yr01', '{"type": "mortgage", "provider": "Tailspin Mortgage", "name": "Tailspin 30-Year Fixed Mortgage", "description": "A conforming 30-year fixed-rate mortgage for purchase or refinance, from 5% down.", "aprType": "fixed", "tiers": [{"minScore": 680, "maxScore": 850, "apr": 7.49, "creditLimit": {"min": 100000, "max": 806500}}], "rules": {"minScore": 680, "refinance": {"accountKinds": ["mortgage"]}}, "costs": {"annualFee": 0}, "termMonths": 360, "signupBonus": null, "applicationUrl": "https://www.tailspinmortgage.example/apply/30-year-fixed"}'),
  ('off_tspFixed15yr01', '{"type": "mortgage", "provider": "Tailspin Mortgage", "name": "Tailspin 15-Year Fixed Mortgage", "description": "Pay your home off sooner: a 15-year fixed rate with lower total interest than a 30-year loan.", "aprType": "fixed", "tiers": [{"minScore": 700, "maxScore": 850, "apr": 6.875, "creditLimit": {"min": 100000, "max": 806500}}], "rules": {"minScore": 700, "refinance": {"accountKinds": ["mortgage"]}}, "costs": {"annualFee": 0}, "termMonths": 180, "signupBonus": null, "applicationUrl": "https://www.tailspinmortgage.example/apply/15-year-fixed"}'),
  ('off_tspFhaLoan0001', '{"type": "mortgage", "provider": "Tailspin Mortgage", "name": "Tailspin FHA 30-Year Mortgage", "description": "Government-insured FHA loan with 3.5% down, for first-time buyers and moderate credit.", "aprType": "fixed", "tiers": [{"minScore": 580, "maxScore": 850, "apr": 7.25, "creditLimit": {"min": 50000, "max": 498257}}], "rules": {"minScore": 580, "refinance": {"accountKinds": ["mortgage"]}}, "costs": {"annualFee": 0}, "termMonths": 360, "signupBonus": null, "applicationUrl": "https://www.tailspinmortgage.example/apply/fha-30-year"}'),
  ('off_wgbArm71000001', '{"type": "mortgage", "provider": "Woodgrove Bank", "name": "Woodgrove 7/1 Adjustable-Rate Mortgage", "description": "A fixed rate for the first 7 years, then adjusting yearly; jumbo amounts available.", "aprType": "variable", "tiers": [{"minScore": 720, "maxScore": 850, "apr": 7.875, "creditLimit": {"min": 150000, "max": 1500000}}], "rules": {"minScore": 720, "refinance": {"accountKinds": ["mortgage"]}}, "costs": {"annualFee": 0}, "termMonths": 360, "signupBonus": null, "applicationUrl": "https://www.woodgrovebank.example/mortgages/7-1-arm"}')
`;

export const sql = `
create table offers (
  client_id text not null references clients(id),
  id text not null,
  version integer not null,
  status text not null check (status in ('draft', 'active', 'paused', 'archived')),
  body jsonb not null,
  starts_at timestamptz,
  expires_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (client_id, id)
);
create index offers_client_created on offers (client_id, created_at desc, id desc);

create table offer_versions (
  client_id text not null,
  offer_id text not null,
  version integer not null,
  body jsonb not null,
  created_at timestamptz not null,
  primary key (client_id, offer_id, version)
);

alter table clients add column sample_catalogue_seeded boolean not null default false;
alter table offer_clicks add column offer_version integer;
alter table offer_conversions add column stage text not null default 'funded';
alter table offer_conversions add column amount numeric;
alter table offer_conversions add column occurred_at timestamptz;
drop index offer_conversions_click;
create unique index offer_conversions_click_stage on offer_conversions (click_id, stage);

insert into offers (client_id, id, version, status, body, created_at, updated_at)
select c.client_id, l.id, 1, 'archived', l.body::jsonb, min(c.recorded_at), min(c.recorded_at)
from offer_clicks c join (values ${LEGACY_OFFERS}) as l(id, body) on l.id = c.offer_id
group by c.client_id, l.id, l.body;
insert into offer_versions (client_id, offer_id, version, body, created_at)
select client_id, id, 1, body, created_at from offers;

create table offer_impressions (
  client_id text not null,
  offer_id text not null,
  user_id text not null,
  day date not null,
  primary key (client_id, offer_id, user_id, day)
);
create index offer_impressions_user on offer_impressions (user_id);

create table program_counts (
  client_id text not null,
  day date not null,
  offer_id text not null default '',
  metric text not null,
  count bigint not null default 0,
  amount numeric not null default 0,
  primary key (client_id, day, offer_id, metric)
);

create table program_looks (
  client_id text not null,
  user_id text not null,
  day date not null,
  primary key (user_id, day)
);

create table offer_profiles (
  user_id text primary key references users(id),
  client_id text not null,
  facts jsonb not null,
  as_of timestamptz not null
);

-- Each customer's current and first score with us: what moves them between the program's score bands.
create table program_customer_scores (
  user_id text primary key,
  client_id text not null,
  score integer not null,
  first_score integer not null
);
create index offer_profiles_client_user on offer_profiles (client_id, user_id);

create table program_score_bands (
  client_id text not null,
  band text not null,
  customers bigint not null default 0,
  rose bigint not null default 0,
  primary key (client_id, band)
);

-- Each customer's score now, and their first with us: the newest point of their first pull's history.
insert into program_customer_scores (user_id, client_id, score, first_score)
select u.id, u.client_id, l.score, f.score from users u
cross join lateral (select score from score_history where user_id = u.id order by seq desc limit 1) l
cross join lateral (
  select score from score_history
  where user_id = u.id and created_at = (select min(created_at) from score_history where user_id = u.id)
  order by seq desc limit 1
) f
where u.deleted_at is null;
insert into program_score_bands (client_id, band, customers, rose)
select client_id,
  case when score <= 499 then 'very_poor' when score <= 600 then 'poor' when score <= 660 then 'fair'
       when score <= 780 then 'good' else 'excellent' end,
  count(*), count(*) filter (where score > first_score)
from program_customer_scores group by 1, 2;

insert into program_counts (client_id, day, offer_id, metric, count)
select client_id, (created_at at time zone 'UTC')::date, '', 'enrolled', count(*) from users group by 1, 2;
insert into program_counts (client_id, day, offer_id, metric, count)
select client_id, (verified_at at time zone 'UTC')::date, '', 'verified', count(*) from users where verified_at is not null group by 1, 2;
insert into program_counts (client_id, day, offer_id, metric, count)
select client_id, (recorded_at at time zone 'UTC')::date, '', 'consented', count(*) from consents group by 1, 2;
insert into program_counts (client_id, day, offer_id, metric, count)
select client_id, (recorded_at at time zone 'UTC')::date, offer_id, 'clicks', count(*) from offer_clicks group by 1, 2, 3;
insert into program_counts (client_id, day, offer_id, metric, count)
select client_id, (converted_at at time zone 'UTC')::date, offer_id, m.metric, count(*)
from offer_conversions, (values ('applications'), ('approvals'), ('funded')) as m(metric) group by 1, 2, 3, 4;
`;
