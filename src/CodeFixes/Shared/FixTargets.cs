using System;
using System.Collections.Immutable;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// Every compilation a fixed document is part of: its own and those of its linked copies (the other targets of a
/// multi-targeted project, other projects that link the file). The text a fix writes is one for all of them, so an edit
/// that needs something of the runtime (its <c>TryReset</c>, say) is made only when every one of them has it.
/// </summary>
internal sealed class FixTargets
{
    private readonly ImmutableArray<KnownSymbols> _all;

    private FixTargets(ImmutableArray<KnownSymbols> all) => _all = all;

    /// <summary>Whether <paramref name="predicate"/> holds in every compilation of the document.</summary>
    public bool Every(Func<KnownSymbols, bool> predicate)
    {
        foreach (var symbols in _all)
        {
            if (!predicate(symbols))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// The document's compilations, or null when one of them does not reference the runtime type the fix writes
    /// (<paramref name="runtimeType"/>): a rewrite there would break that project's build.
    /// </summary>
    public static async Task<FixTargets?> ForAsync(Document document, KnownSymbols own, Func<KnownSymbols, INamedTypeSymbol?> runtimeType, CancellationToken cancellationToken)
    {
        if (runtimeType(own) is null)
        {
            return null;
        }

        var all = ImmutableArray.CreateBuilder<KnownSymbols>();
        all.Add(own);
        foreach (var linkedId in document.GetLinkedDocumentIds())
        {
            var linked = document.Project.Solution.GetDocument(linkedId);
            var compilation = linked is null ? null : await linked.Project.GetCompilationAsync(cancellationToken).ConfigureAwait(false);
            if (compilation is null || KnownSymbols.For(compilation) is not { } symbols || runtimeType(symbols) is null)
            {
                return null;
            }

            all.Add(symbols);
        }

        return new FixTargets(all.ToImmutable());
    }
}
