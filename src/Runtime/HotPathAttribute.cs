using System;

namespace CoarseTimers;

/// <summary>
/// Marks a method or type as a hot path: the CoarseTimers analyzers treat every timer call inside it as per-operation
/// work and flag it. The analyzers match any attribute named <c>HotPath</c>, so a project may also declare its own. Only
/// the member itself and its containing types count: a derived type or an override is not hot through its base
/// (docs/hot-paths.md, rule 4), hence <c>Inherited = false</c>.
/// </summary>
[AttributeUsage(
    AttributeTargets.Method | AttributeTargets.Constructor | AttributeTargets.Property | AttributeTargets.Class | AttributeTargets.Struct | AttributeTargets.Interface,
    Inherited = false,
    AllowMultiple = false)]
public sealed class HotPathAttribute : Attribute
{
}
