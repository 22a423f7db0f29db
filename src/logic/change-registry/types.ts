/**
 * One behavioural difference in GuardKit between the pinned commits, as a flag (docs/guardkit-logic.md §1, §11),
 * in the manner of Temporal's SdkFlags: the logic is written once and reads the flag where
 * behaviour differs. A profile is a set of flags.
 */
export interface LogicChange {
  /** camelCase id, cited at each read site as `// <id> (Dnn):`. */
  readonly id: string
  /** docs/guardkit-logic.md §1 difference rows this flag covers (one flag per difference and commit). */
  readonly diffs: readonly string[]
  /** Short sha of the GuardKit commit that landed it (docs/guardkit-logic.md §0.2). */
  readonly commit: string
  /** What caused it: the seed and its fix as docs/guardkit-logic.md §2 lists them, or `non-seed TASK-FIX-PV01`, … */
  readonly cause: string
  /** The seed document it comes from, when one does. */
  readonly seed: '000' | '001' | '002' | '003' | '004' | null
  readonly area: 'pipeline' | 'coach' | 'requirements' | 'orchestrator' | 'mode'
  /** GuardKit functions whose behaviour it changes. */
  readonly functions: readonly string[]
  /** One line: legacy behaviour → new behaviour. */
  readonly summary: string
  /** Section(s) of docs/guardkit-logic.md describing it (`docs/guardkit-logic.md §7.5`, `§2 S000, §4.4`). */
  readonly spec: string
}
