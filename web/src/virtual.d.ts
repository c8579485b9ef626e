declare module "virtual:rules" {
  const rules: { straight: string; streets: string };
  export default rules;
}

declare module "virtual:bot-guide" {
  const guide: string;
  export default guide;
}
