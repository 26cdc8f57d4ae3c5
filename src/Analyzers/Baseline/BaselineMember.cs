using System.Collections.Immutable;
using Microsoft.CodeAnalysis;

namespace CoarseTimers.Analyzers.Baseline;

/// <summary>
/// The member a diagnostic belongs to, as a documentation comment ID (<c>M:Ns.Type.Method(System.Int32)</c>), attached
/// to every CoarseTimers diagnostic as the property <see cref="PropertyName"/>. The baseline is keyed by it rather than
/// by line, so entries survive edits elsewhere in the file. The compiler's SARIF log carries it (as a custom property),
/// which is how the package's baseline writer learns it; the suppressor reads it back from the diagnostic.
/// </summary>
internal static class BaselineMember
{
    public const string PropertyName = "CoarseTimers.Member";

    /// <summary>The diagnostic properties naming the member around <paramref name="containingSymbol"/>; empty if none.</summary>
    public static ImmutableDictionary<string, string?> Properties(ISymbol? containingSymbol)
    {
        var id = IdOf(containingSymbol);
        return id is null ? ImmutableDictionary<string, string?>.Empty : ImmutableDictionary<string, string?>.Empty.Add(PropertyName, id);
    }

    /// <summary>
    /// The documentation ID of the declared member that holds <paramref name="symbol"/>: lambdas, local functions and
    /// accessors belong to their member, so moving code inside a member keeps its key.
    /// </summary>
    public static string? IdOf(ISymbol? symbol)
    {
        while (symbol is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction } || symbol is ILocalSymbol or IParameterSymbol or IRangeVariableSymbol)
        {
            symbol = symbol.ContainingSymbol;
        }

        if (symbol is IMethodSymbol { AssociatedSymbol: { } associated })
        {
            symbol = associated;
        }

        return symbol is IMethodSymbol or IPropertySymbol or IFieldSymbol or IEventSymbol or INamedTypeSymbol
            ? DocumentationCommentId.CreateDeclarationId(symbol)
            : null;
    }
}
