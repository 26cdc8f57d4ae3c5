using System;
using Microsoft.CodeAnalysis;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// One rewrite of one node. Fixes produce edits instead of documents so that every diagnostic of a document is applied
/// in one <see cref="Microsoft.CodeAnalysis.Editing.SyntaxEditor"/> pass: nested and overlapping sites (a
/// <c>Task.Delay</c> inside <c>Task.WhenAny</c> inside a loop with a timeout source) all survive, and two diagnostics
/// that need the same edit (a creation and a later <c>CancelAfter</c> on it) apply it once.
/// </summary>
internal readonly struct DocumentEdit
{
    public DocumentEdit(SyntaxNode node, Func<SyntaxNode, SyntaxNode> rewrite)
    {
        Node = node;
        Rewrite = rewrite;
    }

    private DocumentEdit(SyntaxNode node)
    {
        Node = node;
        Rewrite = null;
    }

    /// <summary>The node in the original tree.</summary>
    public SyntaxNode Node { get; }

    /// <summary>Rewrites the node as it stands after any nested edits; null removes the node (a statement).</summary>
    public Func<SyntaxNode, SyntaxNode>? Rewrite { get; }

    /// <summary>Removes <paramref name="statement"/> (a statement in a block: one that a rewrite made pointless).</summary>
    public static DocumentEdit Remove(SyntaxNode statement) => new(statement);
}
