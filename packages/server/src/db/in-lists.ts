import {
  BinaryOperationNode,
  FunctionNode,
  OperationNodeTransformer,
  OperatorNode,
  PrimitiveValueListNode,
  ValueNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/** What `in` and `not in` become: the comparison, and the array function it applies to. */
const AS_ARRAY: Readonly<Record<string, readonly ['=' | '<>', 'any' | 'all']>> = { in: ['=', 'any'], 'not in': ['<>', 'all'] };

const isInList = (node: OperationNode): node is BinaryOperationNode =>
  BinaryOperationNode.is(node) && OperatorNode.is(node.operator) && node.operator.operator in AS_ARRAY && PrimitiveValueListNode.is(node.rightOperand);

/** Whether the tree holds an `in` list: a walk without copies, so the statements without one (most) are not rebuilt. */
function hasInList(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasInList);
  // Only into nodes, never into a parameter's value (a large array, a Buffer).
  if (typeof value !== 'object' || value === null || !('kind' in value) || ValueNode.is(value as OperationNode)) return false;
  if (isInList(value as OperationNode)) return true;
  for (const key in value) if (hasInList((value as Record<string, unknown>)[key])) return true;
  return false;
}

class InListsAsArrays extends OperationNodeTransformer {
  protected override transformBinaryOperation(node: BinaryOperationNode): BinaryOperationNode {
    if (!isInList(node)) return super.transformBinaryOperation(node);
    const [compare, fn] = AS_ARRAY[(node.operator as OperatorNode).operator]!;
    return BinaryOperationNode.create(
      this.transformNode(node.leftOperand),
      OperatorNode.create(compare),
      FunctionNode.create(fn, [ValueNode.create([...(node.rightOperand as PrimitiveValueListNode).values])]),
    );
  }
}

/**
 * `x in (…list…)` sent as `x = any($1)` (and `not in` as `<> all($1)`), the list as one array parameter. A batch's
 * statement (the orders of a payment batch, the sessions it claims) then has one text whatever its size, so it is
 * prepared and planned once (`prepared-statements.ts`), where each list length was a statement of its own: parsed
 * and planned again, and, seen often, taking one of the process's bounded prepared names from the hot statements.
 */
export class InListsAsArraysPlugin implements KyselyPlugin {
  readonly #transformer = new InListsAsArrays();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return hasInList(args.node) ? this.#transformer.transformNode(args.node, args.queryId) : args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
