using System.Linq;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// Sources whose timer a <c>TimeProvider</c> decides. <c>CancelAfter</c> on a source created with one
/// (<c>new CancellationTokenSource(t, timeProvider)</c>, <c>timeProvider.CreateCancellationTokenSource(t)</c>) arms the
/// provider's timer, not the BCL's: a fake provider in tests, <c>CoarseTimeProvider</c> in production. As calls that take a
/// provider are never flagged, neither is re-arming such a source.
/// </summary>
internal static class TimeProviderSources
{
    /// <summary>
    /// True when the local, field or property that <paramref name="instance"/> (a <c>CancelAfter</c> receiver) reads has a
    /// value created with a <c>TimeProvider</c> stored in it, in its initializer or an assignment (<c>=</c>, <c>??=</c>) in
    /// its member (a local) or in its type's declarations in this file (a field or property). The file's code only:
    /// reading other files would cost a semantic model each, for a rare shape.
    /// </summary>
    public static bool Holds(IOperation? instance, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        var receiver = instance.ThroughConditionalAccess();
        if (symbols.TimeProvider is null || receiver?.SemanticModel is not { } model)
        {
            return false;
        }

        ISymbol? variable = receiver switch
        {
            ILocalReferenceOperation local => local.Local,
            IFieldReferenceOperation field => field.Field,
            IPropertyReferenceOperation { Property.Parameters.Length: 0 } property => property.Property,
            _ => null,
        };
        if (variable is null)
        {
            return false;
        }

        foreach (var reference in variable.DeclaringSyntaxReferences)
        {
            if (reference.SyntaxTree != model.SyntaxTree)
            {
                continue;
            }

            var declaration = reference.GetSyntax(cancellationToken);
            var initializer = declaration switch
            {
                VariableDeclaratorSyntax declarator => declarator.Initializer?.Value,
                PropertyDeclarationSyntax property => property.Initializer?.Value,
                _ => null,
            };
            if (initializer is not null && IsProviderCreation(initializer, model, symbols, cancellationToken))
            {
                return true;
            }

            var scope = variable is ILocalSymbol
                ? declaration.Ancestors().FirstOrDefault(a => a is MemberDeclarationSyntax or GlobalStatementSyntax)
                : declaration.Ancestors().OfType<TypeDeclarationSyntax>().FirstOrDefault();
            if (scope is not null && AssignsProviderCreation(scope, variable, model, symbols, cancellationToken))
            {
                return true;
            }
        }

        return false;
    }

    private static bool AssignsProviderCreation(SyntaxNode scope, ISymbol variable, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        foreach (var identifier in scope.DescendantNodes().OfType<IdentifierNameSyntax>())
        {
            if (identifier.Identifier.ValueText == variable.Name && Storage.AssignedValue(identifier) is { } value &&
                SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(identifier, cancellationToken).Symbol?.OriginalDefinition, variable.OriginalDefinition) &&
                IsProviderCreation(value, model, symbols, cancellationToken))
            {
                return true;
            }
        }

        return false;
    }

    // A creation or call that takes a TimeProvider (also as either branch of a ?: or the right of a ??).
    private static bool IsProviderCreation(ExpressionSyntax value, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        switch (value)
        {
            case ParenthesizedExpressionSyntax parenthesized:
                return IsProviderCreation(parenthesized.Expression, model, symbols, cancellationToken);
            case ConditionalExpressionSyntax conditional:
                return IsProviderCreation(conditional.WhenTrue, model, symbols, cancellationToken) ||
                       IsProviderCreation(conditional.WhenFalse, model, symbols, cancellationToken);
            case BinaryExpressionSyntax coalesce when coalesce.IsKind(SyntaxKind.CoalesceExpression):
                return IsProviderCreation(coalesce.Left, model, symbols, cancellationToken) ||
                       IsProviderCreation(coalesce.Right, model, symbols, cancellationToken);
            case BaseObjectCreationExpressionSyntax or InvocationExpressionSyntax:
                return model.GetSymbolInfo(value, cancellationToken).Symbol is IMethodSymbol method && symbols.TakesTimeProvider(method);
            default:
                return false;
        }
    }
}
