// The module vite.config.ts writes at build time: the names of ../shared/templates and their recorded licences.
declare module "virtual:shared-templates" {
  const index: { names: string[]; licences?: Record<string, string>; note?: string };
  export default index;
}
