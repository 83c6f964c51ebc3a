// The one vmq setting: how far the app's clock (`t`) may be from the server's. Phone clocks drift
// and V免签's own check was commented out for that reason, so the default is a generous day.
import type { Gateway } from "../../core/gateway.ts";

export const VMQ_TIME_WINDOW_DEFAULT = 86_400;

export async function vmqWindow(gw: Gateway): Promise<number> {
  return (await gw.settings()).int("vmq_time_window") || VMQ_TIME_WINDOW_DEFAULT;
}
