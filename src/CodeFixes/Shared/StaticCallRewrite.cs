using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>Retargets a static call (<c>Task.Delay(...)</c>, or <c>Delay(...)</c> under <c>using static</c>) to a runtime type.</summary>
internal static class StaticCallRewrite
{
    public static IReadOnlyList<DocumentEdit>? Retarget(SyntaxNode node, SemanticModel model, string runtimeType, string method)
    {
        var invocation = node as InvocationExpressionSyntax ?? node.FirstAncestorOrSelf<InvocationExpressionSyntax>();
        if (invocation?.Expression is not (MemberAccessExpressionSyntax or IdentifierNameSyntax) ||
            model.GetSymbolInfo(invocation).Symbol is not IMethodSymbol { IsStatic: true } target || target.Name != method)
        {
            return null;
        }

        var position = invocation.SpanStart;
        var replacement = RuntimeNames.StaticMember(runtimeType, method, model, position);
        return new[]
        {
            new DocumentEdit(invocation.Expression, current => replacement.WithTriviaFrom(current)),
        };
    }
}
