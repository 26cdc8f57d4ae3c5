using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// Retargets a static call the rule's matcher accepted (<c>Task.Delay(...)</c>, or <c>Delay(...)</c> under
/// <c>using static</c>) to the same-named method of a runtime type, arguments untouched.
/// </summary>
internal static class StaticCallRewrite
{
    public static IReadOnlyList<DocumentEdit>? Retarget(IInvocationOperation? invocation, SemanticModel model, string runtimeType)
    {
        if (invocation?.Syntax is not InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax or IdentifierNameSyntax } syntax)
        {
            return null;
        }

        var replacement = RuntimeNames.StaticMember(runtimeType, invocation.TargetMethod.Name, model, syntax.SpanStart);
        return new[]
        {
            new DocumentEdit(syntax.Expression, current => replacement.WithTriviaFrom(current)),
        };
    }
}
