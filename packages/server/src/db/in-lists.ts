import {
  BinaryOperationNode,
  FunctionNode,
  OperationNodeTransformer,
  OperatorNode,
  PrimitiveValueListNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

class InListsAsArrays extends OperationNodeTransformer {
  protected override transformBinaryOperation(node: BinaryOperationNode): BinaryOperationNode {
    const { operator, rightOperand } = node;
    if (!OperatorNode.is(operator) || !PrimitiveValueListNode.is(rightOperand)) return super.transformBinaryOperation(node);
    const compare = operator.operator === 'in' ? '=' : operator.operator === 'not in' ? '<>' : undefined;
    if (!compare) return super.transformBinaryOperation(node);
    return BinaryOperationNode.create(
      this.transformNode(node.leftOperand),
      OperatorNode.create(compare),
      FunctionNode.create(compare === '=' ? 'any' : 'all', [ValueNode.create([...rightOperand.values])]),
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
    return this.#transformer.transformNode(args.node, args.queryId);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
