/** The syntax tree of a Jinja template, shaped after Jinja2's own nodes. */

export type Expr =
  | { kind: "const"; value: unknown }
  | { kind: "name"; name: string }
  | { kind: "list"; items: Expr[] }
  | { kind: "tuple"; items: Expr[] }
  | { kind: "dict"; pairs: [Expr, Expr][] }
  | { kind: "getattr"; node: Expr; attr: string }
  | { kind: "getitem"; node: Expr; arg: Expr }
  | { kind: "slice"; start: Expr | null; stop: Expr | null; step: Expr | null }
  | { kind: "call"; node: Expr; args: CallArgs }
  | { kind: "filter"; node: Expr | null; name: string; args: CallArgs }
  | { kind: "test"; node: Expr; name: string; args: CallArgs }
  | { kind: "binop"; op: string; left: Expr; right: Expr }
  | { kind: "unary"; op: "-" | "+"; node: Expr }
  | { kind: "not"; node: Expr }
  | { kind: "and"; left: Expr; right: Expr }
  | { kind: "or"; left: Expr; right: Expr }
  | { kind: "concat"; nodes: Expr[] }
  | { kind: "compare"; first: Expr; ops: { op: string; node: Expr }[] }
  | { kind: "cond"; test: Expr; value: Expr; otherwise: Expr | null; line: number };

export interface CallArgs {
  args: Expr[];
  kwargs: { name: string; value: Expr }[];
  dynArgs: Expr | null;
  dynKwargs: Expr | null;
}

export type Target =
  | { kind: "name"; name: string }
  | { kind: "tuple"; items: Target[] }
  | { kind: "nsref"; name: string; attr: string };

export type Stmt =
  | { kind: "output"; nodes: (string | Expr)[] }
  | {
      kind: "for";
      target: Target;
      iter: Expr;
      body: Stmt[];
      otherwise: Stmt[];
      test: Expr | null;
      recursive: boolean;
    }
  | { kind: "if"; test: Expr; body: Stmt[]; otherwise: Stmt[] }
  | { kind: "set"; target: Target; value: Expr }
  | { kind: "setblock"; target: Target; body: Stmt[]; filter: Expr | null }
  | { kind: "macro"; name: string; params: string[]; defaults: Expr[]; body: Stmt[] }
  | { kind: "callblock"; call: Expr; params: string[]; defaults: Expr[]; body: Stmt[] }
  | { kind: "filterblock"; filter: Expr; body: Stmt[] }
  | { kind: "with"; targets: Target[]; values: Expr[]; body: Stmt[] }
  | { kind: "scope"; body: Stmt[] }
  | { kind: "block"; name: string; scoped: boolean; body: Stmt[] }
  | { kind: "load"; tag: "extends" | "include" | "import" | "from"; template: Expr }
  | { kind: "autoescape"; value: Expr; body: Stmt[] }
  | { kind: "break"; line: number }
  | { kind: "continue"; line: number };
