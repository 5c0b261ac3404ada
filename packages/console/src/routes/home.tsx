import { Link } from '@tanstack/react-router';
import { useCan } from '../shell';
import { PageHeader } from '../ui/ui';

/** Where a new member starts: the path from nothing to a show that sells, then the door. */
export function HomePage() {
  const canEvents = useCan('events:write');
  const canDevelopers = useCan('developers:read');
  const canCommerce = useCan('commerce:write');
  return (
    <>
      <PageHeader title="Welcome" />
      <ol className="steps">
        {canEvents && (
          <li>
            <Link to="/shows/events">Create an event</Link>, add ticket types and publish it.
          </li>
        )}
        {canCommerce && (
          <li>
            <Link to="/merch/products">Add merch</Link>: a product, its variants and their stock, then publish it.
          </li>
        )}
        <li>
          Follow sales in <Link to="/money/payments">Payments</Link> and refund from there.
        </li>
        <li>
          Open <Link to="/door">At the door</Link> on a phone to scan tickets, online or not.
        </li>
        {canDevelopers && (
          <li>
            Connect your systems: <Link to="/developers/keys">API keys</Link>,, the <Link to="/developers/requests">request log</Link>, the{' '}
            <Link to="/developers/events">event log</Link> and <Link to="/developers/webhooks">webhooks</Link>.
          </li>
        )}
      </ol>
    </>
  );
}
