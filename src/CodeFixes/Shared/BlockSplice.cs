using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// A block a rewrite left standing alone in a block (the body of a <c>try</c> whose <c>finally</c> became empty): its
/// statements take its place when that cannot change what a name means, otherwise it stays a nested block. A
/// <see cref="Microsoft.CodeAnalysis.Editing.SyntaxEditor"/> edit replaces one node with one node, so the edit marks the block and this pass, run on
/// the finished tree, splices it.
/// </summary>
internal static class BlockSplice
{
    private static readonly SyntaxAnnotation s_annotation = new(nameof(BlockSplice));

    /// <summary><paramref name="block"/>, marked to be spliced into its parent block by <see cref="Apply"/>.</summary>
    public static BlockSyntax Mark(BlockSyntax block) => block.WithAdditionalAnnotations(s_annotation);

    /// <summary>Splices every marked block whose parent is a block and that declares nothing at its own level.</summary>
    public static SyntaxNode Apply(SyntaxNode root)
    {
        var marked = root.GetAnnotatedNodes(s_annotation).OfType<BlockSyntax>().ToList();
        if (marked.Count == 0)
        {
            return root;
        }

        return root.ReplaceNodes(
            marked.Select(block => block.Parent).OfType<BlockSyntax>().Distinct(),
            (original, current) => Splice(current));
    }

    private static BlockSyntax Splice(BlockSyntax parent)
    {
        var statements = new System.Collections.Generic.List<StatementSyntax>();
        foreach (var statement in parent.Statements)
        {
            if (statement is BlockSyntax block && block.HasAnnotation(s_annotation) && !DeclaresAtItsLevel(block) && block.Statements.Count > 0)
            {
                // Re-indented one level out by the formatter, which the fix runs on what it annotates.
                statements.AddRange(block.Statements.Select(inner => inner.WithAdditionalAnnotations(Formatter.Annotation)));
            }
            else
            {
                statements.Add(statement);
            }
        }

        return parent.WithStatements(SyntaxFactory.List(statements));
    }

    /// <summary>
    /// True when a statement directly in <paramref name="block"/> declares a local, a local function or a pattern or
    /// <c>out</c> variable: spliced, it would become visible to (or clash with) the statements around the block.
    /// </summary>
    private static bool DeclaresAtItsLevel(BlockSyntax block) =>
        block.Statements.Any(statement => statement is LocalDeclarationStatementSyntax or LocalFunctionStatementSyntax or LabeledStatementSyntax ||
            statement.DescendantNodes(node => node is not (BlockSyntax or AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax))
                .Any(node => node is SingleVariableDesignationSyntax or VariableDeclaratorSyntax));
}
