declare module "virtual:rules" {
  const rules: { straight: string; streets: string };
  export default rules;
}
