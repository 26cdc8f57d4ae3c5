using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// Where a name is spelled in the compilation, for the interprocedural evidence of the hot-path model (who calls a member:
/// <see cref="ColdCallers"/>). The data structure, one per
/// compilation: a memo from (name, whether constructor calls that name no type are wanted) to the identifier tokens that
/// spell the name, found by an ordinal text search of each tree (no tree is walked unless it contains the name). Only
/// names of members that hold a would-be diagnostic are asked for, so most compilations never search.
/// Tuning knob: <see cref="MaxTokens"/>: the search stops (reads no further tree) past it, and callers treat such a name as too common
/// to follow (binding every use would cost more than the evidence is worth).
/// </summary>
internal sealed class NameOccurrences
{
    /// <summary>Tokens spelling one name beyond which the name is not followed (the cost bound).</summary>
    internal const int MaxTokens = 40;

    private readonly Compilation _compilation;
    private readonly ConcurrentDictionary<(string Name, bool Constructor), Occurrences> _occurrences = new();

    public NameOccurrences(Compilation compilation)
    {
        _compilation = compilation;
    }

    /// <summary>
    /// The identifier tokens that spell <paramref name="name"/> (plus, for a constructor, the target-typed creations and
    /// constructor initializers in the same files), found by a text search of each tree and memoised per name.
    /// </summary>
    public Occurrences Find(string name, bool constructor, CancellationToken cancellationToken) => _occurrences.GetOrAdd((name, constructor), key =>
    {
        var n = key.Name;
        var found = new Occurrences();
        foreach (var tree in _compilation.SyntaxTrees)
        {
            // Past the bound the name is not followed, whatever the other trees hold: stop reading them.
            if (found.Tokens.Count > MaxTokens)
            {
                break;
            }

            var text = tree.GetText(cancellationToken).ToString();
            var at = text.IndexOf(n, System.StringComparison.Ordinal);
            if (at < 0)
            {
                continue;
            }

            var root = tree.GetRoot(cancellationToken);
            for (; at >= 0 && found.Tokens.Count <= MaxTokens; at = text.IndexOf(n, at + n.Length, System.StringComparison.Ordinal))
            {
                var token = root.FindToken(at);
                // The token ends where the name does: `@Arm` (an escaped identifier) spells Arm too.
                if (token.IsKind(SyntaxKind.IdentifierToken) && token.Span.End == at + n.Length && token.ValueText == n)
                {
                    found.Tokens.Add(token);
                }
            }

            foreach (var node in key.Constructor ? root.DescendantNodes() : System.Linq.Enumerable.Empty<SyntaxNode>())
            {
                if (node is ImplicitObjectCreationExpressionSyntax or ConstructorInitializerSyntax)
                {
                    found.Unnamed.Add(node);
                }
            }
        }

        return found;
    });

    /// <summary>Where a name is spelled, and the calls in those files that name no method (<c>new(...)</c>, <c>this(...)</c>, <c>base(...)</c>).</summary>
    internal sealed class Occurrences
    {
        public List<SyntaxToken> Tokens { get; } = new();

        public List<SyntaxNode> Unnamed { get; } = new();
    }
}
