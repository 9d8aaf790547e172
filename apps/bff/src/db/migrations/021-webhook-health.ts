/**
 * A subscription's health and its retry schedule.
 * `last_*`: the latest scheduled attempt, success and failure (with its reason), kept by the settling statement;
 * `disabled_*`: when and why it stopped receiving (`failed` or `disabled`), cleared on re-activation;
 * `failure_notice_sent_at`: the latest e-mail saying it turned `failed`. `retry_schedule`: `standard` or, in the
 * sandbox, `fast`. Existing rows take their values from the attempt log and their status.
 */
export const sql = `
alter table webhooks add column retry_schedule text not null default 'standard' check (retry_schedule in ('standard', 'fast'));
alter table webhooks add column last_delivery_at timestamptz;
alter table webhooks add column last_success_at timestamptz;
alter table webhooks add column last_failure_at timestamptz;
alter table webhooks add column last_failure_reason text;
alter table webhooks add column disabled_at timestamptz;
alter table webhooks add column disabled_reason text;
alter table webhooks add column failure_notice_sent_at timestamptz;

update webhooks w set last_delivery_at = a.last_at, last_success_at = a.last_success_at, last_failure_at = a.last_failure_at
from (
  select a.webhook_id, max(a.delivered_at) as last_at,
    max(a.delivered_at) filter (where a.status = 'success') as last_success_at,
    max(a.delivered_at) filter (where a.status = 'failed') as last_failure_at
  from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
  where d.state <> 'test'
  group by a.webhook_id) a
where w.id = a.webhook_id;
update webhooks w set last_failure_reason = (
  select a.error from webhook_attempts a where a.webhook_id = w.id and a.status = 'failed' and a.delivered_at = w.last_failure_at
  order by a.seq desc limit 1)
where w.last_failure_at is not null;
update webhooks set disabled_at = updated_at,
  disabled_reason = case when status = 'disabled' then 'disabled by you' else 'failed after its last retry' end
where status <> 'active';
`;
