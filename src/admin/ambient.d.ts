// The console's assets are imported as text (`with { type: "text" }`) so the compiled binary carries
// them; tell tsc these imports are strings. The htmx attribute types for JSX come from kitajs.
/// <reference path="../../node_modules/@kitajs/html/htmx.d.ts" />

declare module "*/console.css" {
  const text: string;
  export default text;
}
declare module "*/console.js" {
  const text: string;
  export default text;
}
declare module "htmx.org/dist/htmx.min.js" {
  const text: string;
  export default text;
}
declare module "uplot/dist/uPlot.iife.min.js" {
  const text: string;
  export default text;
}
declare module "uplot/dist/uPlot.min.css" {
  const text: string;
  export default text;
}
declare module "jsqr/dist/jsQR.js" {
  const text: string;
  export default text;
}
declare module "*/orders.css" {
  const text: string;
  export default text;
}
declare module "*/orders.js" {
  const text: string;
  export default text;
}
declare module "*/manage.css" {
  const text: string;
  export default text;
}
declare module "*/accounts.js" {
  const text: string;
  export default text;
}
declare module "*/dashboard.css" {
  const text: string;
  export default text;
}
declare module "*/dashboard.js" {
  const text: string;
  export default text;
}
declare module "*/clients.css" {
  const text: string;
  export default text;
}
