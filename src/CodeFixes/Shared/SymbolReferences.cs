using System.Collections.Generic;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>The identifiers under a node that name one symbol: filtered by spelling first, so only those are bound.</summary>
internal static class SymbolReferences
{
    /// <summary>
    /// Every identifier under <paramref name="scope"/> that binds to <paramref name="symbol"/>, by original definition:
    /// <c>other._timer</c> on another instantiation of a generic type (<c>Box&lt;int&gt;</c> in <c>Box&lt;T&gt;</c>) is the same field.
    /// </summary>
    public static IEnumerable<IdentifierNameSyntax> Within(SyntaxNode scope, ISymbol symbol, SemanticModel model, CancellationToken cancellationToken) =>
        scope.DescendantNodes().OfType<IdentifierNameSyntax>().Where(identifier =>
            identifier.Identifier.ValueText == symbol.Name &&
            SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(identifier, cancellationToken).Symbol?.OriginalDefinition, symbol.OriginalDefinition));
}
