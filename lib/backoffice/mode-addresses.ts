// The notification addresses of merchants and hosted integrations are stored per mode: three columns
// of live mode (unprefixed) and three of test mode (test...). The back office reads and shows those
// of the mode it shows (lib/notifications/resolve-notification-url.ts picks them).
import type { Mode } from "../mode";
import { addressesOf } from "../notifications/resolve-notification-url";

export { ADDRESS_COLUMNS } from "../notifications/resolve-notification-url";

/** The row with its three addresses those of `mode`, and the test-mode columns left out. */
export function withModeAddresses<Row extends Parameters<typeof addressesOf>[0]>(row: Row, mode: Mode) {
  const {
    testDefaultNotificationUrl: _testDefault,
    testCompletionNotificationUrl: _testCompletion,
    testLifecycleNotificationUrl: _testLifecycle,
    ...rest
  } = row;
  return { ...rest, ...addressesOf(row, mode) };
}
